// Writes docs/hogql-functions.md from the built allow-list (npm run docs:functions).
import fs from 'node:fs';
import { functionsMarkdown } from '../dist/query/hogql/functions/markdown.js';

fs.writeFileSync(new URL('../docs/hogql-functions.md', import.meta.url), functionsMarkdown());
