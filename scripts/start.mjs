// `npm start`: builds the API into plain JavaScript, then runs it (server/main.ts says what it does).
import { pathToFileURL } from 'node:url';
import { buildServer } from './serverBuild.mjs';

await import(pathToFileURL(buildServer()).href);
