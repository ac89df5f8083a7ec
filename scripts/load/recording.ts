import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The shared reference recordings (read-only): the `shared/reference` folder beside the checkout, or
 * REFERENCE_DIR for machines that keep them elsewhere.
 */
export const REFERENCE_DIR = process.env.REFERENCE_DIR ?? join(__dirname, '../../../shared/reference');

export interface Recording {
  method: string;
  path: string;
  requestBody: any;
  status: number;
  responseBody: any;
}

/** Parses one reference `.http` exchange: request line, headers, JSON body, then the response likewise. */
export function readRecording(relative: string): Recording {
  const text = readFileSync(join(REFERENCE_DIR, relative), 'utf8');
  const split = text.search(/^HTTP\/1\.[01] \d{3}/m);
  const request = text.slice(0, split);
  const response = text.slice(split);
  const [method, path] = request.split('\n', 1)[0].split(' ');
  const bodyOf = (part: string) => {
    const blank = part.indexOf('\n\n');
    const body = blank < 0 ? '' : part.slice(blank + 2).trim();
    return body ? JSON.parse(body) : undefined;
  };
  return {
    method,
    path,
    requestBody: bodyOf(request),
    status: Number(/^HTTP\/1\.[01] (\d{3})/.exec(response)![1]),
    responseBody: bodyOf(response),
  };
}
