// Development logs for a person: `npm start` passes every line its servers print through `formatLine`. The
// server always logs JSON (pino), which production ships to a log system as it is; here each request becomes one
// short line (`12:00:01 GET /core/v1/tenants 200 3 ms`) and other events a line with their fields. Lines that
// are not JSON (Vite, the demo platform) pass through unchanged. LOG_FORMAT=json keeps the JSON.
import { prettyFactory } from 'pino-pretty';

/** One short line for a request log entry (server/src/http/request-log.ts), the message for anything else. */
function message(log, messageKey) {
  if (log.req?.method && log.res) {
    const aborted = log[messageKey] === 'request aborted' ? ' (aborted)' : '';
    return `${log.req.method} ${log.req.path} ${log.res.statusCode} ${log.responseTime} ms${aborted}`;
  }
  return log[messageKey];
}

export function createFormatter({
  json = process.env.LOG_FORMAT === 'json',
  colorize = Boolean(process.stdout.isTTY),
} = {}) {
  if (json) return (line) => line;
  const pretty = prettyFactory({
    colorize,
    translateTime: 'SYS:HH:MM:ss',
    singleLine: true,
    // What the one-line request message already says, and what never varies within a process.
    ignore: 'pid,hostname,instance,req,res,responseTime',
    messageFormat: message,
  });
  return (line) => {
    if (!line.startsWith('{')) return line;
    try {
      return pretty(JSON.parse(line)).replace(/\n$/, '');
    } catch {
      return line;
    }
  };
}
