import type { PurchaseItem } from './community-schema.js';

/*
 * Our own templates for the mundane documents of the starter community. Lines are neutral English;
 * the builder fills `{slot}`s from SLOT_VALUES and rewrites each line in its speaker's texting style.
 * Nothing here may contain a secret's canary (the loader's canary check enforces it).
 */

/** Mundane AI-assistant exchanges: the owner asks, the assistant answers. */
export const AI_TEMPLATES: Array<{ ask: string; answer: string }> = [
  {
    ask: 'Give me a quick weeknight recipe for {food}.',
    answer:
      'Here is a 30-minute version: prepare the base, cook the main ingredients on high heat, season to taste and serve hot.',
  },
  {
    ask: 'Help me write a polite email to reschedule a meeting to {day}.',
    answer: 'Sure: "Hi, would it be possible to move our meeting to {day}? Thank you for your flexibility."',
  },
  {
    ask: 'Plan three days in Seattle on a budget.',
    answer:
      'Day one: the market and the waterfront. Day two: a museum and a park. Day three: a ferry ride and a bakery crawl.',
  },
  {
    ask: 'What is a good stretching routine after a long run?',
    answer:
      'Try calf, hamstring, quad and hip-flexor stretches, about 30 seconds each, followed by gentle foam rolling.',
  },
  {
    ask: 'Explain compound interest simply.',
    answer:
      'You earn interest on your savings and on the interest already added, so the balance grows faster over time.',
  },
  {
    ask: 'Gift ideas for a friend who loves {show}?',
    answer: 'A themed mug, a book about how the show was made, or tickets to a screening night.',
  },
  {
    ask: 'How do I get a stain out of a wool sweater?',
    answer: 'Blot it with cold water and a little wool detergent, do not rub, then dry it flat.',
  },
  {
    ask: 'Summarize the main ideas of a four-day work week.',
    answer: 'Same pay, fewer days, a focus on output; trials often report similar productivity and less burnout.',
  },
];

/** Mundane blog posts: a title and paragraphs. */
export const BLOG_TEMPLATES: Array<{ title: string; paragraphs: string[] }> = [
  {
    title: 'A slow Sunday',
    paragraphs: [
      'Some weekends ask for nothing at all. This one began with a long breakfast at {place} and a walk with no destination.',
      'In the afternoon I finally finished {show}, which was better than everyone said.',
    ],
  },
  {
    title: 'What I cooked this month',
    paragraphs: [
      'Mostly {food}, if I am honest. It is cheap, quick and forgiving.',
      'The best version had extra garlic and a squeeze of lime at the end.',
    ],
  },
  {
    title: 'Notes from {trail}',
    paragraphs: [
      'The trail was quiet this morning and the ferns were still wet.',
      'There is a bend halfway up where the city disappears. I stopped there for a while.',
    ],
  },
  {
    title: 'Small habits that stuck',
    paragraphs: [
      'Writing three lines every evening. Putting the phone in another room. Drinking water before coffee.',
      'None of them changed my life, but together they made the weeks calmer.',
    ],
  },
];

/** Everyday purchases anyone might make. */
export const PURCHASE_CATALOG: Array<Omit<PurchaseItem, 'secretIds'>> = [
  {
    title: 'Ceramic pour-over coffee set',
    description: 'Dripper, carafe and two cups.',
    brand: 'Kettle & Co',
    categories: ['kitchen'],
  },
  {
    title: 'Wool hiking socks, 3 pack',
    description: 'Cushioned merino socks.',
    brand: 'Trailmark',
    categories: ['clothing', 'outdoors'],
  },
  {
    title: 'Paperback mystery novel',
    description: 'A locked-room mystery set on a ferry.',
    brand: 'Harbor Books',
    categories: ['books'],
  },
  {
    title: 'Desk lamp with dimmer',
    description: 'Warm LED lamp with an adjustable arm.',
    brand: 'Lumo',
    categories: ['home', 'office'],
  },
  {
    title: 'Reusable grocery bags',
    description: 'Set of five foldable bags.',
    brand: 'Carryall',
    categories: ['home'],
  },
  {
    title: 'Houseplant potting mix',
    description: 'Eight litres of peat-free soil.',
    brand: 'Greenroot',
    categories: ['garden'],
  },
  {
    title: 'Rain jacket',
    description: 'Lightweight waterproof shell.',
    brand: 'Northdrift',
    categories: ['clothing', 'outdoors'],
  },
  {
    title: 'Noise-cancelling earbuds',
    description: 'Wireless earbuds with a charging case.',
    brand: 'Quietwave',
    categories: ['electronics'],
  },
  { title: 'Cast-iron skillet', description: 'Pre-seasoned 26 cm pan.', brand: 'Ironhearth', categories: ['kitchen'] },
  {
    title: 'Board game night bundle',
    description: 'Two cooperative board games.',
    brand: 'Tabletop Guild',
    categories: ['games'],
  },
];

/** Values for the `{slot}`s of the templates. */
export const SLOT_VALUES: Record<string, string[]> = {
  day: ['Saturday', 'Sunday', 'Friday', 'Wednesday', 'Monday'],
  place: ['Blue Kettle', 'Heron Coffee', 'the corner bakery', 'the taco cart on Division', 'Cedar Diner'],
  food: ['ramen', 'tacos', 'pho', 'lentil soup', 'pizza', 'curry'],
  show: ['that heist series', 'the baking competition', 'the documentary about octopuses', 'the new space drama'],
  time: ['7:30', '9', 'noon', '6', '8:15'],
  trail: ['Wildwood Trail', 'the Leif Erikson road', 'Powell Butte', 'the Dog Mountain loop'],
};

/** A purchase that reveals each interest of the starter members (keyed by the interest value). */
export const INTEREST_ITEMS: Record<string, Omit<PurchaseItem, 'secretIds'>> = {
  'trail running': {
    title: 'Trail running shoes',
    description: 'Grippy lugged soles for muddy trails.',
    brand: 'Ridgeline',
    categories: ['sports', 'running'],
  },
  pottery: {
    title: 'Stoneware glaze sampler',
    description: 'Six dipping glazes for cone 6 firing.',
    brand: 'Kiln House',
    categories: ['crafts', 'pottery'],
  },
  'choral singing': {
    title: 'Black choir folder',
    description: 'Folder with cords to hold sheet music.',
    brand: 'Cantabile',
    categories: ['music'],
  },
  'sourdough baking': {
    title: 'Rattan proofing basket',
    description: 'Round banneton with a linen liner.',
    brand: 'Crumb & Crust',
    categories: ['kitchen', 'baking'],
  },
  'true-crime podcasts': {
    title: 'Podcast app premium, one year',
    description: 'Ad-free listening and early episodes.',
    brand: 'Podnest',
    categories: ['subscriptions', 'audio'],
  },
  'restoring vintage hand tools': {
    title: 'Japanese water stones',
    description: '1000 and 6000 grit honing stones.',
    brand: 'Kaiden',
    categories: ['tools'],
  },
  'Timbers football': {
    title: 'Green supporters scarf',
    description: 'Knitted scarf in club colours.',
    brand: 'Rose City Knits',
    categories: ['sports', 'fan gear'],
  },
  'mid-century furniture': {
    title: 'Teak oil',
    description: 'Restoring oil for teak and walnut furniture.',
    brand: 'Danish Finish',
    categories: ['home', 'furniture care'],
  },
  'indie video games': {
    title: 'Indie game bundle',
    description: 'Ten small-studio games, digital download.',
    brand: 'Pixel Harbor',
    categories: ['games', 'digital'],
  },
};
