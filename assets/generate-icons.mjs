// Draws the tray and app icons as PNGs with zlib only (no image tooling needed):
// `node assets/generate-icons.mjs`. A ring with a centre dot — Roam's "node" — in black with
// alpha for macOS template images (the menu bar tints them) and in colour elsewhere.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { deflateSync } from 'node:zlib';

const dir = path.dirname(fileURLToPath(import.meta.url));

const crcTable = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(buffer) {
  let c = 0xffffffff;
  for (const byte of buffer) c = crcTable[(c ^ byte) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function chunk(type, data) {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** RGBA PNG of `size`² pixels; `paint(x, y)` returns [r, g, b, a] for a pixel centre in 0..1 units. */
function png(size, paint) {
  const rows = [];
  for (let y = 0; y < size; y++) {
    const row = Buffer.alloc(1 + size * 4);
    for (let x = 0; x < size; x++) {
      // 4×4 supersampling for smooth edges.
      let r = 0,
        g = 0,
        b = 0,
        a = 0;
      for (let sy = 0; sy < 4; sy++)
        for (let sx = 0; sx < 4; sx++) {
          const [pr, pg, pb, pa] = paint((x + (sx + 0.5) / 4) / size, (y + (sy + 0.5) / 4) / size);
          r += pr * pa;
          g += pg * pa;
          b += pb * pa;
          a += pa;
        }
      const o = 1 + x * 4;
      row[o] = a ? Math.round(r / a) : 0;
      row[o + 1] = a ? Math.round(g / a) : 0;
      row[o + 2] = a ? Math.round(b / a) : 0;
      row[o + 3] = Math.round((a / 16) * 255);
    }
    rows.push(row);
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header[8] = 8; // bit depth
  header[9] = 6; // RGBA
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([
    signature,
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.concat(rows))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

function node(color, background) {
  return (x, y) => {
    const d = Math.hypot(x - 0.5, y - 0.5);
    if (d < 0.14 || (d > 0.3 && d < 0.42)) return [...color, 1];
    if (background && d < 0.5) return [...background, 1];
    return [0, 0, 0, 0];
  };
}

const black = [0, 0, 0];
const roamBlue = [19, 124, 189];
const outputs = {
  'iconTemplate.png': png(16, node(black)),
  'iconTemplate@2x.png': png(32, node(black)),
  'tray-icon.png': png(32, node(roamBlue)),
  'tray-icon@2x.png': png(64, node(roamBlue)),
  'icon.png': png(512, node([255, 255, 255], roamBlue)),
};
for (const [name, data] of Object.entries(outputs)) writeFileSync(path.join(dir, name), data);
