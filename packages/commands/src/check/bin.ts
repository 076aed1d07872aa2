#!/usr/bin/env node
// The `a2a-commands` bin: `a2a-commands check <url>`.
import { main } from './main.js';

process.exitCode = await main(process.argv.slice(2));
