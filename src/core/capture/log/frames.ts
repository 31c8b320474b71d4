// The capture log's records on disk: a length, a CRC-32 of the payload, then the payload (UTF-8
// JSON). A record is acknowledged only after it and everything before it are synced, so a frame
// that is short or fails its checksum can only be the torn end of an append that was never
// answered: reading stops there.
import { crc32 } from 'node:zlib';

const HEADER_BYTES = 8;

export function encodeFrame(payload: string): Buffer {
  const body = Buffer.from(payload, 'utf8');
  const frame = Buffer.allocUnsafe(HEADER_BYTES + body.length);
  frame.writeUInt32LE(body.length, 0);
  frame.writeUInt32LE(crc32(body), 4);
  body.copy(frame, HEADER_BYTES);
  return frame;
}

export interface DecodedFrames {
  payloads: string[];
  /** Bytes of whole, intact frames from the start: what a torn tail is cut back to. */
  intactBytes: number;
}

export function decodeFrames(data: Buffer): DecodedFrames {
  const payloads: string[] = [];
  let offset = 0;
  while (offset + HEADER_BYTES <= data.length) {
    const length = data.readUInt32LE(offset);
    const end = offset + HEADER_BYTES + length;
    if (end > data.length) break;
    const body = data.subarray(offset + HEADER_BYTES, end);
    if (crc32(body) !== data.readUInt32LE(offset + 4)) break;
    payloads.push(body.toString('utf8'));
    offset = end;
  }
  return { payloads, intactBytes: offset };
}
