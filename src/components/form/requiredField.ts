import { z } from 'zod';

/** A value a form requires though the API lets it be absent: `message` when empty, else the contract's own rule. */
export const requiredField = (message: string, rule: z.ZodType) =>
  z
    .any()
    .refine((v) => v !== undefined && v !== null && v !== '', { message, abort: true })
    .pipe(rule);
