import { dynamicPurchasingSystem } from './dynamic-purchasing-system';
import type { FrameworkProcedure } from './framework-procedure';

export const FRAMEWORK_PROCEDURES: Record<string, FrameworkProcedure> = { dynamicPurchasingSystem };

/** The only lookup by framework type (docs/architecture.md §Procedures as data); the create schema has already refused unknown types. */
export const frameworkProcedure = (type: string): FrameworkProcedure => FRAMEWORK_PROCEDURES[type] ?? dynamicPurchasingSystem;
