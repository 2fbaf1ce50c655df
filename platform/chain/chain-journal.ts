import { type FileHandle, open } from 'node:fs/promises';
import type { Hash, Hex } from 'viem';

/**
 * The embedded chain's memory across restarts (decision 0052). Hardhat's EDR keeps its chain in
 * memory only: it has no state dump or load, and forks only from a JSON-RPC URL. So every block
 * it mines is written here, one JSON line each, and replayed into a fresh EDR at start:
 * 1. a `genesis` line (its timestamp, which EDR's genesis hash depends on, and that hash);
 * 2. one `block` line per block: its number, timestamp and hash, and its transactions as the
 *    signed raw bytes the node was given (so replaying them makes the same transaction hashes);
 * 3. one `deployment` line once the rail's contracts are deployed: what the deployment returned.
 *    A journal without it is a start cut during the deployment, which no payment can name.
 * Each append is written and fdatasync'ed before the call returns. A line cut by a crash (the
 * last, without its newline) was never acknowledged: it is dropped when the journal is opened.
 */
export interface JournalGenesis {
  /** Epoch seconds. */
  timestamp: number;
  hash: Hash;
}

export interface JournaledBlock {
  number: number;
  /** Epoch seconds. */
  timestamp: number;
  hash: Hash;
  /** The signed transactions in block order. */
  transactions: Hex[];
}

export type JournalLine = { genesis: JournalGenesis } | { block: JournaledBlock } | { deployment: unknown };

export interface JournalContents {
  genesis: JournalGenesis | undefined;
  blocks: JournaledBlock[];
  deployment: unknown;
}

export class ChainJournalError extends Error {
  override name = 'ChainJournalError';
}

export interface ChainJournal {
  readonly path: string;
  /** What the journal held when opened (the chain to restore). */
  readonly contents: JournalContents;
  /** Appends the lines and waits until they are on disk. */
  append(lines: readonly JournalLine[]): Promise<void>;
  /** Empties the journal (a start cut during the deployment: nothing in it is named anywhere). */
  reset(): Promise<void>;
  close(): Promise<void>;
}

function parseContents(path: string, complete: string[]): JournalContents {
  const contents: JournalContents = { genesis: undefined, blocks: [], deployment: undefined };
  complete.forEach((text, index) => {
    let line: Partial<Record<'genesis' | 'block' | 'deployment', unknown>>;
    try {
      line = JSON.parse(text) as typeof line;
    } catch (error) {
      throw new ChainJournalError(`${path} is damaged at line ${index + 1} (not JSON)`, { cause: error });
    }
    if (line.genesis !== undefined && index === 0) contents.genesis = line.genesis as JournalGenesis;
    else if (line.block !== undefined && contents.genesis) {
      const block = line.block as JournaledBlock;
      if (block.number !== contents.blocks.length + 1) throw new ChainJournalError(`${path} is damaged at line ${index + 1}: block ${block.number} where ${contents.blocks.length + 1} was due`);
      contents.blocks.push(block);
    } else if (line.deployment !== undefined && contents.genesis) contents.deployment = line.deployment;
    else throw new ChainJournalError(`${path} is damaged at line ${index + 1}: an unexpected line`);
  });
  return contents;
}

/** Opens (or creates) the journal at `path`, dropping a last line cut by a crash. */
export async function openChainJournal(path: string): Promise<ChainJournal> {
  const file: FileHandle = await open(path, 'a+', 0o600);
  try {
    const text = await file.readFile('utf8');
    const end = text.lastIndexOf('\n') + 1;
    if (end < text.length) {
      await file.truncate(end);
      await file.datasync();
    }
    const contents = parseContents(path, text.slice(0, end).split('\n').filter(Boolean));
    return {
      path,
      contents,
      async append(lines) {
        if (lines.length === 0) return;
        await file.appendFile(lines.map((line) => `${JSON.stringify(line)}\n`).join(''));
        await file.datasync();
      },
      async reset() {
        await file.truncate(0);
        await file.datasync();
      },
      close: () => file.close(),
    };
  } catch (error) {
    await file.close();
    throw error;
  }
}
