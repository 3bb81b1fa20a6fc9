// `--shard I/N`: the I-th of N shares of the input URLs, by a stable hash of each URL's report identity.
import { plural } from '../../plural.js';
import { InvalidArgumentError } from '@commander-js/extra-typings';
import { reportIdentity } from '../../api/model/report-url.js';

export interface Shard {
  /** 1-based. */
  index: number;
  count: number;
}

/** The most shares a list may be cut into; far more than any CI matrix runs. */
export const MAX_SHARDS = 1000;

/** Parses `I/N` (1 <= I <= N); commander reports the error as a usage error (exit 2). */
export function parseShard(value: string): Shard {
  const match = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(value);
  const index = Number(match?.[1]);
  const count = Number(match?.[2]);
  if (!match || count < 1 || count > MAX_SHARDS || index < 1 || index > count) {
    throw new InvalidArgumentError(`give I/N with 1 <= I <= N <= ${MAX_SHARDS}, such as 2/3 (the second of three shares).`);
  }
  return { index, count };
}

/** A share as `--shard` takes it and the history keeps it: `2/3`. */
export function shardText(shard: Shard): string {
  return `${shard.index}/${shard.count}`;
}

/**
 * The share (1-based) a URL falls in: sha1 of its report identity (reportIdentity), first 48 bits, modulo N.
 * The same on every machine and run, so N jobs given the same list split it with no URL in two shares and
 * none left out; a URL and the stored form of it (a baseline's) fall in the same share.
 */
export function shareOf(url: string, count: number): number {
  // Loaded on first use: node:crypto costs every command's start-up when imported (~6 ms on Node 24).
  const { createHash } = process.getBuiltinModule('node:crypto');
  const digest = createHash('sha1').update(reportIdentity(url)).digest();
  return (digest.readUIntBE(0, 6) % count) + 1;
}

export function inShare(url: string, shard: Shard): boolean {
  return shareOf(url, shard.count) === shard.index;
}

/** How a run's share is described: `share 2 of 3: 40 of 118 URLs`. */
export interface ShareInfo extends Shard {
  /** URLs in this share. */
  urls: number;
  /** URLs in the whole input, after de-duplication. */
  of: number;
}

export function describeShare(share: ShareInfo): string {
  return `share ${share.index} of ${share.count}: ${share.urls} of ${plural(share.of, 'URL')}`;
}

/** A share as a run took it: its description, and a test of whether any URL (a baseline's) belongs to it. */
export interface SelectedShare extends ShareInfo {
  contains(url: string): boolean;
}

/** The URLs of one share, in input order, and the share's description. */
export function selectShare(urls: readonly string[], shard: Shard): { urls: string[]; share: SelectedShare } {
  const selected = urls.filter((url) => inShare(url, shard));
  return { urls: selected, share: { ...shard, urls: selected.length, of: urls.length, contains: (url) => inShare(url, shard) } };
}
