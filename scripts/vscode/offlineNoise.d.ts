export const OFFLINE_NOISE: RegExp;
