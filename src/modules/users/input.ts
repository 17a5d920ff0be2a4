import { z } from 'zod';

export const displayNameSchema = z.string().trim().min(1, 'name must not be empty').max(100, 'name must be at most 100 characters');
