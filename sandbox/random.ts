/** A small deterministic PRNG (mulberry32) so that the seed never depends on Date.now or Math.random. */

const ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyz';

/** FNV-1a, to turn a label such as "jobs:3" into a 32-bit seed. */
function hash(label: string): number {
	let h = 0x811c9dc5;
	for (let i = 0; i < label.length; i++) {
		h ^= label.charCodeAt(i);
		h = Math.imul(h, 0x01000193);
	}
	return h >>> 0;
}

export class Rng {
	private state: number;

	constructor(seed: string | number) {
		this.state = typeof seed === 'number' ? seed >>> 0 : hash(seed);
	}

	/** A float in [0, 1). */
	next(): number {
		this.state = (this.state + 0x6d2b79f5) >>> 0;
		let t = this.state;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	}

	/** An integer in [0, n). */
	int(n: number): number {
		return Math.floor(this.next() * n);
	}

	/** An integer in [min, max]. */
	between(min: number, max: number): number {
		return min + this.int(max - min + 1);
	}

	pick<T>(items: readonly T[]): T {
		return items[this.int(items.length)];
	}

	chance(p: number): boolean {
		return this.next() < p;
	}

	/** A lower-case alphanumeric token, as in the ids of the service (`job_<token>`). */
	token(length = 10): string {
		let out = '';
		for (let i = 0; i < length; i++) out += ALPHABET[this.int(ALPHABET.length)];
		return out;
	}

	bytes(n: number): Buffer {
		const out = Buffer.alloc(n);
		for (let i = 0; i < n; i++) out[i] = this.int(256);
		return out;
	}
}
