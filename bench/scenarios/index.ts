import type { Scenario } from '../scenario.js';
import { stack } from './stack.js';

export const scenarios: Record<string, Scenario> = { stack };
