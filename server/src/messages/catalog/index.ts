import type { Language } from '../languages';
import { en, type Catalog } from './en';
import { es } from './es';
import { fi } from './fi';
import { nl } from './nl';
import { pt } from './pt';
import { sv } from './sv';

export type { Catalog } from './en';

/** Every language's texts; the type makes a missing key in any of them a compile error. */
export const catalogs: Record<Language, Catalog> = { sv, en, nl, fi, es, pt };
