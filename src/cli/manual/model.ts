// The command tree as the manual reads it: every command's usage, description, arguments, options, subcommands and
// the text its --help prints after them (notes, examples), taken from the same commander declarations --help renders.
import type { EventEmitter } from 'node:events';
import type { CommandUnknownOpts, Help } from '@commander-js/extra-typings';
import { HELP_TOPIC_NAMES, helpTopic } from '../commands/help-topics.js';
import { globalOptionsOf } from '../program.js';

/** The width the manual's help topics are written at: that of the help printed into a pipe. */
const MANUAL_WIDTH = 80;

/** A term and what it means: an option (`--search <query>`), an argument, a subcommand. */
export interface ManualItem {
  term: string;
  description: string;
}

/** A block of the text --help prints after the options: a paragraph of prose, or lines kept as they are. */
export interface ManualBlock {
  kind: 'prose' | 'lines';
  text: string;
}

/** A titled part of a page: `Examples`, `Exit codes`, `Environment`. */
export interface ManualSection {
  title: string;
  blocks: ManualBlock[];
}

export interface ManualSubcommand extends ManualItem {
  /** The page of the subcommand (`rsapi-reports-list`); none for the implicit `help`. */
  page?: string;
}

export interface ManualPage {
  /** The command's names from the root (`['reports', 'list']`; `[]` for the root). */
  path: string[];
  /** `rsapi reports list`. */
  title: string;
  /** The file name without extension: `rsapi-reports-list`. */
  page: string;
  /** As --help's `Usage:` line shows it, without `Usage: `. */
  usage: string;
  description: string;
  aliases: string[];
  arguments: ManualItem[];
  options: ManualItem[];
  /** The options of the root, valid on this command too (none on the root's own page). */
  globalOptions: ManualItem[];
  subcommands: ManualSubcommand[];
  /** Untitled blocks of the text after the options: part of the description. */
  notes: ManualBlock[];
  /** Titled blocks of it (Examples), then, on the root, the help topics (`rsapi help exit-codes`). */
  sections: ManualSection[];
  /** The page above this one (`rsapi-reports` for `rsapi-reports-list`). */
  parent?: string;
}

/** Every page of the program, the root first, parents before their children. */
export function manualPages(root: CommandUnknownOpts): ManualPage[] {
  const pages: ManualPage[] = [];
  const visit = (command: CommandUnknownOpts, path: string[], parent: string | undefined) => {
    const page = describePage(root, command, path, parent);
    pages.push(page);
    for (const sub of ownSubcommands(command)) visit(sub, [...path, sub.name()], page.page);
  };
  visit(root, [], undefined);
  return pages;
}

/** The page's file name for a command path: `rsapi-reports-list`. */
export function pageName(rootName: string, path: readonly string[]): string {
  return [rootName, ...path].join('-');
}

/** The subcommands that have a page of their own: all but the implicit `help [command]`. */
function ownSubcommands(command: CommandUnknownOpts): CommandUnknownOpts[] {
  return command
    .createHelp()
    .visibleCommands(command)
    .filter((sub) => !isHelpCommand(command, sub));
}

function isHelpCommand(parent: CommandUnknownOpts, sub: CommandUnknownOpts): boolean {
  return sub.name() === 'help' && !parent.commands.includes(sub);
}

function describePage(root: CommandUnknownOpts, command: CommandUnknownOpts, path: string[], parent: string | undefined): ManualPage {
  const help: Help = command.createHelp();
  const item = (term: string, description: string): ManualItem => ({ term, description });
  const after = parseAfterText(helpTextAfter(command));
  const isRoot = path.length === 0;
  return {
    path,
    title: [root.name(), ...path].join(' '),
    page: pageName(root.name(), path),
    usage: help.commandUsage(command),
    description: help.commandDescription(command),
    aliases: command.aliases(),
    arguments: help.visibleArguments(command).map((argument) => item(help.argumentTerm(argument), help.argumentDescription(argument))),
    options: help.visibleOptions(command).map((option) => item(help.optionTerm(option), help.optionDescription(option))),
    globalOptions: isRoot ? [] : globalOptionsOf(command).map((option) => item(help.optionTerm(option), help.optionDescription(option))),
    subcommands: help.visibleCommands(command).map((sub) => ({
      term: help.subcommandTerm(sub),
      description: help.subcommandDescription(sub),
      page: isHelpCommand(command, sub) ? undefined : pageName(root.name(), [...path, sub.name()]),
    })),
    notes: isRoot ? after.notes.filter((block) => !isTopicSummary(block)) : after.notes,
    sections: isRoot ? withHelpTopics(after.sections) : after.sections,
    parent,
  };
}

/**
 * What --help prints before and after a command's options (`addHelpText('before' | 'after', ...)`), asked of the
 * command as commander asks it: by the events its outputHelp emits. (commander's typings leave out the EventEmitter
 * the Command class is.)
 */
function helpTextAfter(command: CommandUnknownOpts): string {
  let text = '';
  const context = { error: false, command, write: (chunk: string) => (text += chunk) };
  const emitter = command as unknown as EventEmitter;
  emitter.emit('beforeHelp', context);
  emitter.emit('afterHelp', context);
  return text;
}

/** A block of help text, with the title a line `Title:` alone above it gave it. */
type TitledBlock = ManualBlock & { title?: string };

/**
 * Splits help text into blocks at blank lines, in order. A block opened by a line `Title:` alone is titled
 * (`Examples:`, `Exit codes:`) and holds the lines below it; a block whose lines are all indented is kept as lines;
 * any other is prose.
 */
function parseBlocks(text: string): TitledBlock[] {
  const blocks: TitledBlock[] = [];
  for (const chunk of text.split(/\n[ \t]*\n/)) {
    const lines = chunk.split('\n');
    while (lines.length > 0 && lines[0]!.trim() === '') lines.shift();
    while (lines.length > 0 && lines.at(-1)!.trim() === '') lines.pop();
    if (lines.length === 0) continue;
    const title = /^([A-Z][^:]*):$/.exec(lines[0]!)?.[1];
    if (title !== undefined && lines.length > 1) blocks.push({ title, kind: 'lines', text: dedent(lines.slice(1)) });
    else if (lines.every((line) => /^\s/.test(line))) blocks.push({ kind: 'lines', text: dedent(lines) });
    else blocks.push({ kind: 'prose', text: lines.map((line) => line.trim()).join('\n') });
  }
  return blocks;
}

/** The text after the options: its untitled blocks (notes) and its titled ones grouped by title (sections). */
export function parseAfterText(text: string): { notes: ManualBlock[]; sections: ManualSection[] } {
  const notes: ManualBlock[] = [];
  const sections: ManualSection[] = [];
  for (const { title, ...block } of parseBlocks(text)) {
    if (title === undefined) {
      notes.push(block);
      continue;
    }
    const section = sections.find((each) => each.title === title);
    if (section) section.blocks.push(block);
    else sections.push({ title, blocks: [block] });
  }
  return { notes, sections };
}

function dedent(lines: string[]): string {
  const indent = Math.min(...lines.filter((line) => line.trim() !== '').map((line) => /^ */.exec(line)![0].length));
  return lines.map((line) => line.slice(indent).trimEnd()).join('\n');
}

/**
 * The root's page gives each help topic (`rsapi help exit-codes`, `rsapi help environment`) whole, as a section of its
 * own, in place of the root help's short forms of them (its `Exit codes:` block, its `Environment: ...` line).
 */
function withHelpTopics(sections: ManualSection[]): ManualSection[] {
  const topics = HELP_TOPIC_NAMES.map((name) => ({ title: topicTitle(name), text: helpTopic(name, MANUAL_WIDTH) as string }));
  const kept = sections.filter((section) => !topics.some((topic) => topic.title === section.title));
  return [...kept, ...topics.map((topic) => ({ title: topic.title, blocks: topicBlocks(topic.text, topic.title) }))];
}

/** `exit-codes` -> `Exit codes`. */
function topicTitle(name: string): string {
  const words = name.replace(/-/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** A topic's text as blocks, in order, its own heading line (`Exit codes:`) left out: the section's title says it. */
function topicBlocks(text: string, title: string): ManualBlock[] {
  return parseBlocks(text).flatMap(({ title: blockTitle, ...block }) =>
    blockTitle === undefined || blockTitle === title ? [block] : [{ kind: 'prose' as const, text: `${blockTitle}:` }, block],
  );
}

/** Whether a root-help note is the short form of a help topic (`Environment: RSAPI_BASE_URL, ...`): the topic replaces it. */
function isTopicSummary(block: ManualBlock): boolean {
  return HELP_TOPIC_NAMES.some((name) => block.text.startsWith(`${topicTitle(name)}:`));
}
