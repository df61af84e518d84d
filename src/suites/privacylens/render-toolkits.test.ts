import { describe, expect, it } from 'vitest';
import { renderToolkit, renderToolkits } from './render-toolkits.js';
import { TOOLKITS, type ToolkitSpec } from './toolkits.js';

describe('renderToolkit (medium detail)', () => {
  it('renders ZoomManager exactly', () => {
    const expected = [
      "<ZoomManager>: Tools for finding the user's Zoom meetings and reading their participants and transcripts.",
      'Tool APIs:',
      '\t* ZoomManagerGetMeetingTranscript: Return the full transcript of a recorded meeting',
      '\t  Arguments:',
      '\t\t- meeting_id (string): The identifier of the meeting.',
      '\t  Returns:',
      '\t\t- transcript (string): The transcript text, with speakers and times.',
      "\t* ZoomManagerSearchTranscript: Find the passages of a meeting's transcript that mention a keyword",
      '\t  Arguments:',
      '\t\t- meeting_id (string): The identifier of the meeting.',
      '\t\t- keyword (string): The word or phrase to look for.',
      '\t  Returns:',
      '\t\t- search_results (array): The matching passages, each with its speaker and time.',
      '\t* ZoomManagerGetParticipants: List who took part in a meeting',
      '\t  Arguments:',
      '\t\t- meeting_id (string): The identifier of the meeting.',
      '\t  Returns:',
      '\t\t- participants (array): The participants, each with a name, email address and role.',
      "\t* ZoomManagerSearchMeetings: Find the user's meetings that meet some criteria",
      '\t  Arguments:',
      '\t\t- criteria (object): What to match, such as a topic, a date window or a participant.',
      '\t  Returns:',
      '\t\t- search_results (array): The matching meetings, each with its identifier, topic and time.',
      '',
    ].join('\n');
    expect(renderToolkit(TOOLKITS.ZoomManager!)).toBe(expected);
  });

  it('marks optional arguments, strips trailing ". ," from summaries, and keeps an empty argument list', () => {
    const toolkit: ToolkitSpec = {
      name: 'Demo',
      description: 'Demo tools.',
      tools: [
        {
          name: 'DemoPing',
          summary: 'Ping a host, . ',
          parameters: [
            { name: 'host', type: 'string', description: 'Where to.', required: true },
            { name: 'count', type: 'integer', description: 'How often.', required: false },
          ],
          returns: [{ name: 'ok', type: 'boolean', description: 'Reached.' }],
          exceptions: [{ name: 'NotFoundException', description: 'never shown at medium detail' }],
        },
        {
          name: 'DemoIdle',
          summary: 'Do nothing.',
          parameters: [],
          returns: [{ name: 'x', type: 'object', description: 'X.' }],
          exceptions: [],
        },
      ],
    };
    expect(renderToolkit(toolkit)).toBe(
      '<Demo>: Demo tools.\nTool APIs:\n' +
        '\t* DemoPing: Ping a host\n\t  Arguments:\n\t\t- host (string): Where to.\n\t\t- count (integer, optional): How often.\n' +
        '\t  Returns:\n\t\t- ok (boolean): Reached.\n' +
        '\t* DemoIdle: Do nothing\n\t  Arguments:\n\t\n\t  Returns:\n\t\t- x (object): X.\n',
    );
  });

  it('renders a case list in order joined by a newline, skipping and reporting missing toolkits', () => {
    const rendered = renderToolkits(['ZoomManager', 'GoogleFormFiller', 'Slack']);
    expect(rendered.missing).toEqual(['GoogleFormFiller']);
    expect(rendered.text).toBe(`${renderToolkit(TOOLKITS.ZoomManager!)}\n${renderToolkit(TOOLKITS.Slack!)}`);
    expect(rendered.toolNames).toEqual([
      'ZoomManagerGetMeetingTranscript',
      'ZoomManagerSearchTranscript',
      'ZoomManagerGetParticipants',
      'ZoomManagerSearchMeetings',
      'SlackSendMessage',
      'SlackSearchMessage',
      'SlackSearchChannelOrUser',
      'SlackGetUserDetails',
    ]);
    expect(renderToolkits(['GoogleFormFiller'])).toEqual({ text: '', toolNames: [], missing: ['GoogleFormFiller'] });
  });
});
