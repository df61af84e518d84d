import type { PurchaseItem } from './community-schema.js';
import { STARTER_AUTHORING } from './starter-authoring.js';

/*
 * Our own templates for the mundane documents of the starter community (authored in
 * `starter-authoring.json`). Lines are neutral English;
 * the builder fills `{slot}`s from SLOT_VALUES and rewrites each line in its speaker's texting style.
 * Nothing here may contain a secret's canary (the loader's canary check enforces it).
 */

/** Mundane AI-assistant exchanges: the owner asks, the assistant answers. */
export const AI_TEMPLATES: Array<{ ask: string; answer: string }> = STARTER_AUTHORING.aiTemplates;

/** Mundane blog posts: a title and paragraphs. */
export const BLOG_TEMPLATES: Array<{ title: string; paragraphs: string[] }> = STARTER_AUTHORING.blogTemplates;

/** Everyday purchases anyone might make. */
export const PURCHASE_CATALOG: Array<Omit<PurchaseItem, 'secretIds'>> = STARTER_AUTHORING.purchaseCatalog;

/** Values for the `{slot}`s of the templates. */
export const SLOT_VALUES: Record<string, string[]> = STARTER_AUTHORING.slotValues;

/** A purchase that reveals each interest of the starter members (keyed by the interest value). */
export const INTEREST_ITEMS: Record<string, Omit<PurchaseItem, 'secretIds'>> = STARTER_AUTHORING.interestItems;
