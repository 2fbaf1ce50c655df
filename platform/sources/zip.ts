// The ZIP container (PKWARE APPNOTE 6.3) as far as a published workbook needs it: the central directory,
// stored and deflated entries, no ZIP64, no encryption. Enough to read an .xlsx without a dependency.

import { inflateRawSync } from 'node:zlib';

const END_OF_DIRECTORY = 0x06054b50;
const DIRECTORY_ENTRY = 0x02014b50;
const LOCAL_HEADER = 0x04034b50;
const END_RECORD_SIZE = 22;
const MAX_COMMENT = 0xffff;
const STORED = 0;
const DEFLATED = 8;
/** An entry larger than this is refused, whatever its header says: a workbook sheet is a few MB. */
export const MAX_ENTRY_BYTES = 64 * 1024 * 1024;

interface DirectoryEntry {
  method: number;
  compressedSize: number;
  size: number;
  localHeaderOffset: number;
}

export interface ZipArchive {
  /** Entry names as stored (forward slashes). */
  names: readonly string[];
  /** The entry's bytes, inflated; undefined when the archive holds no such entry. */
  read(name: string): Uint8Array | undefined;
}

/** Opens an archive from its bytes; throws an Error naming what is wrong when it is not a ZIP it can read. */
export function openZip(bytes: Uint8Array): ZipArchive {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const entries = readDirectory(bytes, view, findEndOfDirectory(view));
  return {
    names: [...entries.keys()],
    read: (name) => {
      const entry = entries.get(name);
      return entry === undefined ? undefined : inflateEntry(bytes, view, name, entry);
    },
  };
}

function findEndOfDirectory(view: DataView): number {
  const lowest = Math.max(0, view.byteLength - END_RECORD_SIZE - MAX_COMMENT);
  for (let offset = view.byteLength - END_RECORD_SIZE; offset >= lowest; offset -= 1) {
    if (view.getUint32(offset, true) === END_OF_DIRECTORY) return offset;
  }
  throw new Error('not a ZIP archive (no end of central directory record)');
}

function readDirectory(bytes: Uint8Array, view: DataView, end: number): Map<string, DirectoryEntry> {
  const count = view.getUint16(end + 10, true);
  let offset = view.getUint32(end + 16, true);
  if (count === 0xffff || offset === 0xffffffff) throw new Error('ZIP64 archives are not supported');
  const entries = new Map<string, DirectoryEntry>();
  const names = new TextDecoder();
  for (let index = 0; index < count; index += 1) {
    if (offset + 46 > view.byteLength || view.getUint32(offset, true) !== DIRECTORY_ENTRY) throw new Error('corrupt ZIP central directory');
    const nameLength = view.getUint16(offset + 28, true);
    const skip = nameLength + view.getUint16(offset + 30, true) + view.getUint16(offset + 32, true);
    const name = names.decode(bytes.subarray(offset + 46, offset + 46 + nameLength));
    entries.set(name, {
      method: view.getUint16(offset + 10, true),
      compressedSize: view.getUint32(offset + 20, true),
      size: view.getUint32(offset + 24, true),
      localHeaderOffset: view.getUint32(offset + 42, true),
    });
    offset += 46 + skip;
  }
  return entries;
}

function inflateEntry(bytes: Uint8Array, view: DataView, name: string, entry: DirectoryEntry): Uint8Array {
  const header = entry.localHeaderOffset;
  if (header + 30 > view.byteLength || view.getUint32(header, true) !== LOCAL_HEADER) throw new Error(`corrupt ZIP entry ${name}`);
  const start = header + 30 + view.getUint16(header + 26, true) + view.getUint16(header + 28, true);
  const data = bytes.subarray(start, start + entry.compressedSize);
  if (data.byteLength !== entry.compressedSize) throw new Error(`truncated ZIP entry ${name}`);
  if (entry.size > MAX_ENTRY_BYTES) throw new Error(`ZIP entry ${name} is larger than ${MAX_ENTRY_BYTES} bytes`);
  if (entry.method === STORED) return data;
  if (entry.method !== DEFLATED) throw new Error(`ZIP entry ${name} uses compression method ${entry.method}`);
  // The declared size bounds the output: an entry inflating past it is refused rather than trusted.
  return new Uint8Array(inflateRawSync(data, { maxOutputLength: Math.max(1, entry.size) }));
}
