import { route, type MountableRoute, type RouteDescription } from './route';

/**
 * `GET|HEAD /api/2.5/spore`: a SPORE description of every route, as the reference serves (its Python client opens
 * each session with `HEAD /api/2.5/spore` to obtain a SESSION cookie). `described` gives every route once the table
 * is whole.
 */
export function sporeRoutes(described: () => readonly RouteDescription[]): MountableRoute[] {
  const handle = (ctx: Parameters<MountableRoute['run']>[0]) => {
    const methods: Record<string, { path: string; method: string; formats: string[] }> = {};
    for (const { method, path } of described()) {
      if (!path.startsWith('/api/2.5/') || method === 'head') continue;
      const name = `${method}_${path.slice('/api/2.5/'.length).replace(/[/:]+/g, '_').replace(/_+$/, '')}`;
      methods[name] = { path, method: method.toUpperCase(), formats: ['json'] };
    }
    ctx.body = { name: 'registry', version: '2.5', base_url: ctx.origin, expected_status: [200], methods };
  };
  return [
    route({
      method: 'get',
      path: '/api/2.5/spore',
      summary: 'SPORE description of the API',
      access: 'public',
      result: 'description',
      handle,
    }),
    route({
      method: 'head',
      path: '/api/2.5/spore',
      summary: 'Opens a session (SESSION cookie), as the reference client does',
      access: 'public',
      result: 'status',
      handle,
    }),
  ];
}
