// The floor for this stack: Express 5 answering a small JSON body, nothing else.
import express from 'express';

const app = express();
app.disable('x-powered-by');
app.get('/hello', (_req, res) => void res.json({ hello: 'world' }));
const server = app.listen(Number(process.env.PORT), '127.0.0.1', () => process.send?.('ready'));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
