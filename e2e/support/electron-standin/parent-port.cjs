// ELECTRON STAND-IN (test harness, not Electron): loaded with `--require` into a Node child that
// stands in for an Electron utility process. Electron gives such a process `process.parentPort`
// (postMessage, and 'message' events carrying { data }); this builds the same from Node's IPC
// channel, so electron/engine-entry.ts runs unchanged.
'use strict'
const { EventEmitter } = require('node:events')

const port = new EventEmitter()
port.postMessage = (message) => {
  if (process.connected) process.send(message)
}
process.on('message', (message) => port.emit('message', { data: message }))
process.parentPort = port
