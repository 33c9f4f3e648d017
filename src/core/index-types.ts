// Types shared across the core's public surface.
export type { Diagnostic } from './config/types';
export type { Layer } from './config/layer';
