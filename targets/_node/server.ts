// node-http: the API in a single Node.js process (node:http + pg Pool, no framework).
import { start } from './app.ts'

await start()
