import { optionsOf } from './options';

/** The six parent stages every hiring pipeline maps its custom stages to (Application Get Many's filter, the trigger's). */
export const PARENT_STAGES = ['rejected', 'new', 'screening', 'interviewing', 'offered', 'hired'] as const;

export const PARENT_STAGE_OPTIONS = optionsOf(PARENT_STAGES);
