// Hoglet's version: package.json's, read once (the file sits one level above both src/ and dist/).
import fs from 'node:fs';

export const HOGLET_VERSION: string = (JSON.parse(fs.readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version;
