// nginx (`return 200`) pinned to one CPU: the target of the throughput benchmarks (run.ts,
// agents.ts). Needs `nginx` (apt-get install nginx-light).
import { spawn, type ChildProcess } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { connect, createServer } from 'node:net'
import { join } from 'node:path'

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port
      s.close(() => resolve(port))
    })
  })
}

/** Is something accepting connections on the port (whatever protocol it speaks)? */
function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = connect(port, '127.0.0.1')
    s.once('connect', () => {
      s.destroy()
      resolve(true)
    })
    s.once('error', () => resolve(false))
  })
}

export interface NginxOptions {
  /** Leave `keepalive_requests` at nginx's default (1000: the 1000th response on a connection closes it). */
  defaultKeepalive?: boolean
  /** Log each response's status, one a line, to this file (off by default: it costs nginx CPU). */
  statusLog?: string
  /**
   * `https`: TLS (HTTP/1.1 and h2 by ALPN) with this key and certificate (PEM files); `h2c`:
   * HTTP/2 in cleartext with prior knowledge (nginx 1.22 then speaks no HTTP/1.1 on that port).
   */
  tls?: { key: string; cert: string }
  h2c?: boolean
}

/** nginx with its files in `dir`, one worker on CPU `cpu`. */
export async function startNginx(
  dir: string,
  cpu: number,
  opts: NginxOptions = {},
): Promise<{ url: string; stop(): void }> {
  const port = await freePort()
  const conf = join(dir, `nginx-${port}.conf`)
  const log = opts.statusLog ? `log_format st '$status'; access_log ${opts.statusLog} st;` : 'access_log off;'
  const keepalive = opts.defaultKeepalive ? '' : 'keepalive_requests 100000000;'
  const listen = opts.tls
    ? `listen 127.0.0.1:${port} ssl http2; ssl_certificate ${opts.tls.cert}; ssl_certificate_key ${opts.tls.key};`
    : `listen 127.0.0.1:${port}${opts.h2c ? ' http2' : ''};`
  const scheme = opts.tls ? 'https' : 'http'
  writeFileSync(
    conf,
    `daemon off; worker_processes 1; pid ${dir}/nginx-${port}.pid; error_log ${dir}/nginx.err warn;
events { worker_connections 4096; }
http { ${log} ${keepalive} keepalive_timeout 300s;
  client_body_temp_path ${dir}; proxy_temp_path ${dir}; fastcgi_temp_path ${dir}; uwsgi_temp_path ${dir}; scgi_temp_path ${dir};
  server { ${listen} location / { return 200 'ok'; } } }
`,
  )
  const child: ChildProcess = spawn('taskset', ['-c', String(cpu), 'nginx', '-c', conf, '-p', dir], {
    stdio: 'inherit',
  })
  for (let i = 0; i < 50; i++) {
    const up = await listening(port)
    if (up) return { url: `${scheme}://127.0.0.1:${port}/`, stop: () => child.kill('SIGTERM') }
    await new Promise((r) => setTimeout(r, 100))
  }
  child.kill('SIGKILL')
  throw new Error('nginx did not start (is it installed? apt-get install nginx-light)')
}
