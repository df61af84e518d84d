import type { ChatTopic } from './starter-people.js';

/*
 * Our own templates for the mundane pair and group chats of the starter community. Lines are
 * neutral English; the builder fills `{slot}`s (starter-templates.ts SLOT_VALUES) and rewrites each
 * line in its speaker's texting style. Nothing here may contain a secret's canary.
 */

/** A two-person exchange: `a` opens (the document owner), `b` answers. */
export type ChatTemplate = { topic: ChatTopic; lines: Array<{ who: 'a' | 'b'; text: string }> };

const a = (text: string) => ({ who: 'a' as const, text });
const b = (text: string) => ({ who: 'b' as const, text });

/** Mundane pair conversations by topic. */
export const CHAT_TEMPLATES: ChatTemplate[] = [
  {
    topic: 'casual',
    lines: [
      a('Free on {day}? Thinking coffee at {place}.'),
      b('Yes, {time} works for me.'),
      a('Perfect, see you there.'),
    ],
  },
  {
    topic: 'casual',
    lines: [
      a('Have you watched {show} yet?'),
      b('Two episodes in. No spoilers please.'),
      a('My lips are sealed, but episode three is wild.'),
      b('Now I have to stay up tonight.'),
    ],
  },
  {
    topic: 'casual',
    lines: [
      a('Craving {food}. Any good spots near you?'),
      b('The place next to {place} is great.'),
      a('Adding it to the list.'),
    ],
  },
  {
    topic: 'casual',
    lines: [
      a('This rain will not stop.'),
      b('I gave up on my umbrella yesterday.'),
      a('Same. Soup weather at least.'),
      b('Always soup weather.'),
    ],
  },
  {
    topic: 'casual',
    lines: [
      a('Lost my keys again.'),
      b('Check the fridge, that is where mine were last time.'),
      a('They were in my coat. Thank you anyway.'),
    ],
  },
  {
    topic: 'casual',
    lines: [
      a('Any podcast recommendations for a long drive?'),
      b('Try the one about shipwrecks, it is oddly calming.'),
      a('Downloading now.'),
    ],
  },
  {
    topic: 'casual',
    lines: [
      a('Happy {day}! Doing anything fun?'),
      b('Cleaning the flat and then {food} takeout.'),
      a('Living the dream.'),
      b('You know it.'),
    ],
  },
  {
    topic: 'casual',
    lines: [a('Can I borrow your big cooler for {day}?'), b('Sure, it is in the garage.'), a('You are the best.')],
  },
  {
    topic: 'work',
    lines: [a('Can we push our 1:1 to {time}?'), b('Yes, that works.'), a('Thanks, I will update the invite.')],
  },
  {
    topic: 'work',
    lines: [
      a('The staging build is failing on the login tests.'),
      b('I saw it. Looks like a flaky fixture.'),
      a('Can you rerun it before the demo?'),
      b('On it.'),
    ],
  },
  {
    topic: 'work',
    lines: [
      a('Design review moved to {day} morning.'),
      b('Good, I need another day on the mockups.'),
      a('No rush, the agenda is short.'),
    ],
  },
  {
    topic: 'work',
    lines: [
      a('Sprint planning notes are in the shared doc.'),
      b('Thanks. I added two tickets for the settings page.'),
      a('Great, we will size them tomorrow.'),
    ],
  },
  {
    topic: 'work',
    lines: [
      a('Who owns the onboarding checklist now?'),
      b('I think it is still on my plate.'),
      a('Can you add the new accessibility steps?'),
      b('Will do this week.'),
    ],
  },
  {
    topic: 'work',
    lines: [
      a('The conference talk got accepted.'),
      b('Congratulations! What is the topic?'),
      a('Designing forms people can actually finish.'),
      b('I would attend that.'),
    ],
  },
  {
    topic: 'family',
    lines: [a('Mom wants both of us at dinner on {day}.'), b('I will be there after six.'), a('I will bring dessert.')],
  },
  {
    topic: 'family',
    lines: [
      a('Dad asked about cleaning the gutters again.'),
      b('I can do it {day} if it is dry.'),
      a('You are a saint.'),
    ],
  },
  {
    topic: 'family',
    lines: [
      a('Found a box of our old photos.'),
      b('The one with the camping trip?'),
      a('Yes, your haircut is a crime.'),
      b('It was a choice.'),
    ],
  },
  {
    topic: 'family',
    lines: [
      a('What are we getting Mom for her birthday?'),
      b('She mentioned a new garden bench.'),
      a('You build it, I will paint it.'),
    ],
  },
  {
    topic: 'running',
    lines: [
      a('Long run on {day}? {trail} maybe.'),
      b('Yes! Meet at the trailhead at {time}.'),
      a('Bringing extra gels.'),
    ],
  },
  {
    topic: 'running',
    lines: [
      a('My new shoes gave me a blister.'),
      b('Break them in on short runs first.'),
      a('Lesson learned the hard way.'),
    ],
  },
  { topic: 'running', lines: [a('Intervals on Tuesday?'), b('Only if we get breakfast after.'), a('Deal.')] },
  {
    topic: 'running',
    lines: [a('{trail} is muddy after the storm.'), b('Let us do the road loop instead.'), a('Good call.')],
  },
  {
    topic: 'landlord',
    lines: [
      a('The boiler is making that knocking noise again.'),
      b('I will call the plumber first thing.'),
      a('Thank you.'),
    ],
  },
  {
    topic: 'landlord',
    lines: [
      a('Rent is sent for this month.'),
      b('Received, thank you.'),
      a('Could you send the receipt when you have a minute?'),
      b('Of course.'),
    ],
  },
  { topic: 'landlord', lines: [a('Recycling day moved to {day}.'), b('Thanks for the heads up.')] },
  {
    topic: 'landlord',
    lines: [a('The plumber can come on {day} at {time}.'), b('I will be home, that works.'), a('Wonderful.')],
  },
  {
    topic: 'business',
    lines: [
      a('The walnut order arrived.'),
      b('How does it look?'),
      a('Straight grain, very few knots.'),
      b('Perfect for the dining table.'),
    ],
  },
  {
    topic: 'business',
    lines: [a('Invoice for the bookshelf job is out.'), b('Great. Due date?'), a('End of the month.')],
  },
  {
    topic: 'business',
    lines: [a('Client meeting moved to {day}.'), b('I will bring the fabric samples.'), a('Good.')],
  },
  {
    topic: 'business',
    lines: [a('Can you update the price list for the website?'), b('Yes, I will add the new chairs.'), a('Thanks.')],
  },
  {
    topic: 'choir',
    lines: [
      a('Rehearsal is at {time} on {day}.'),
      b('Thank you. Are we doing the new piece?'),
      a('Yes, bring the sheet music.'),
    ],
  },
  {
    topic: 'choir',
    lines: [
      a('The concert tickets are printed.'),
      b('How many should I sell?'),
      a('Ten each, if you can.'),
      b('I will try my best.'),
    ],
  },
  {
    topic: 'choir',
    lines: [
      a('I could not find the alto part for the spring concert.'),
      b('I will scan mine tonight.'),
      a('You are wonderful.'),
    ],
  },
];

/** Group chats by group id; speakers are drawn from the members at the time. */
export const GROUP_TEMPLATES: Record<string, string[][]> = {
  'ridge-runners': [
    ['Who is in for {trail} on {day}?', 'Me!', 'Count me in, {time} at the trailhead?', 'Works.'],
    ['Breakfast after the run, {place} again?', 'Always.', 'I will grab a table.'],
    ['Race registration opens Monday.', 'Which distance are we doing?', 'The half, let us not be heroes.'],
    ['Trail report: {trail} is clear and dry.', 'Finally!', 'See everyone {day}.'],
    ['Forgot my water bottle at the trailhead again.', 'I picked it up, it is in my car.', 'Thank you!'],
  ],
  'lumen-product': [
    ['Standup moves to {time} today.', 'Noted.', 'Thanks for the heads up.'],
    ['Release notes draft is in the doc.', 'I added the settings changes.', 'Looks good to me.'],
    ['Reminder: the accessibility audit is on {day}.', 'Screens are ready.', 'I will join after lunch.'],
    ['Who can cover the support rotation next week?', 'I can take Monday to Wednesday.', 'I will do the rest.'],
    ['Demo went well, thanks everyone.', 'Great teamwork.', 'Cake in the kitchen.'],
  ],
};
