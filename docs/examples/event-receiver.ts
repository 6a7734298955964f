import { createServer } from 'node:http';
import { createRemoteJWKSet, jwtVerify, type JWTPayload } from 'jose';

const HOST = 'jogatina.example'; // the service's host
const APP_ID = process.env.JOGATINA_APP_ID ?? ''; // your app's id: every event's audience
const keys = createRemoteJWKSet(new URL(`https://${HOST}/api/v1/jwks`));
const seen = new Set<string>(); // webhook-ids handled: keep them in your database
export const work: JWTPayload[] = []; // your own worker takes the events from here

createServer(async (req, res) => {
  let token = '';
  for await (const chunk of req) token += chunk;
  const options = { issuer: `https://${HOST}`, audience: APP_ID, typ: 'event+jwt' };
  const verified = await jwtVerify(token, keys, options).catch(() => null);
  const id = req.headers['webhook-id'];
  if (!verified || typeof id !== 'string' || id !== verified.payload.jti) {
    res.writeHead(401).end(); // not a true event (a true one is sent again later)
    return;
  }
  res.writeHead(204).end(); // answer at once: an attempt waits 10 s at most
  if (seen.has(id)) return; // delivery is at least once: drop repeats
  seen.add(id);
  work.push(verified.payload);
}).listen(8080);
