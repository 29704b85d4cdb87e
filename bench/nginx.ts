// nginx (`return 200`) pinned to one CPU: the target of the throughput benchmarks (run.ts,
// agents.ts). Needs `nginx` (apt-get install nginx-light).
import { spawn, type ChildProcess } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { join } from 'node:path'

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port
      s.close(() => resolve(port))
    })
  })
}

export interface NginxOptions {
  /** Leave `keepalive_requests` at nginx's default (1000: the 1000th response on a connection closes it). */
  defaultKeepalive?: boolean
  /** Log each response's status, one a line, to this file (off by default: it costs nginx CPU). */
  statusLog?: string
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
  writeFileSync(
    conf,
    `daemon off; worker_processes 1; pid ${dir}/nginx-${port}.pid; error_log ${dir}/nginx.err warn;
events { worker_connections 4096; }
http { ${log} ${keepalive} keepalive_timeout 300s;
  client_body_temp_path ${dir}; proxy_temp_path ${dir}; fastcgi_temp_path ${dir}; uwsgi_temp_path ${dir}; scgi_temp_path ${dir};
  server { listen 127.0.0.1:${port}; location / { return 200 'ok'; } } }
`,
  )
  const child: ChildProcess = spawn('taskset', ['-c', String(cpu), 'nginx', '-c', conf, '-p', dir], {
    stdio: 'inherit',
  })
  for (let i = 0; i < 50; i++) {
    const up = await fetch(`http://127.0.0.1:${port}/`).then(
      (r) => r.ok,
      () => false,
    )
    if (up) return { url: `http://127.0.0.1:${port}/`, stop: () => child.kill('SIGTERM') }
    await new Promise((r) => setTimeout(r, 100))
  }
  child.kill('SIGKILL')
  throw new Error('nginx did not start (is it installed? apt-get install nginx-light)')
}
