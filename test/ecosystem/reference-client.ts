/**
 * The request shapes of the reference's Python client (openprocurement.client.python, `clients.py`), replayed:
 * a `HEAD /api/2.5/spore` opens the session; the client then copies the whole `Set-Cookie` value of each
 * response into its `Cookie` header; it authenticates with HTTP Basic (key as user name, empty password), sends
 * `Content-Type: application/json` on every request, PATCH bodies as a pre-serialised JSON string, owner tokens
 * in `X-Access-Token`, and crawls feeds by merging `next_page` (minus `uri` and `path`) into its parameters,
 * dropping `offset` when the feed answers 404.
 */

export interface ClientReply {
  status: number;
  headers: Headers;
  body: any;
}

export class ReferenceClient {
  /** requests' session cookie jar: only used until the first `Set-Cookie` is copied into `headers.Cookie`. */
  private jarCookie: string | undefined;
  readonly headers: Record<string, string> = { 'Content-Type': 'application/json' };
  /** The feed parameters: `{'mode': '_all_'}` unless given, then whatever `next_page` brought. */
  readonly params: Record<string, string>;
  /** Every request as sent, for assertions on the shapes themselves. */
  readonly sent: { method: string; url: string; headers: Record<string, string>; body?: string }[] = [];

  constructor(
    private readonly hostUrl: string,
    private readonly key: string,
    readonly resource: string,
    params?: Record<string, string>,
  ) {
    this.params = params ?? { mode: '_all_' };
  }

  get prefixPath() {
    return `${this.hostUrl}/api/2.5/${this.resource}`;
  }

  private authorization() {
    return `Basic ${Buffer.from(`${this.key}:`).toString('base64')}`;
  }

  /** The constructor's `self.session.request('HEAD', '{}/api/{}/spore')`: cookies land in the session's jar. */
  async open(): Promise<ClientReply> {
    const res = await fetch(`${this.hostUrl}/api/2.5/spore`, { method: 'HEAD', headers: { authorization: this.authorization() } });
    const setCookie = res.headers.get('set-cookie');
    if (setCookie) this.jarCookie = setCookie.split(';', 1)[0];
    return { status: res.status, headers: res.headers, body: undefined };
  }

  /** `APITemplateClient.request`: copies `Set-Cookie` verbatim into the `Cookie` header for the next request. */
  async request(
    method: string,
    url: string,
    {
      json,
      payload,
      headers = {},
      params,
    }: { json?: unknown; payload?: string; headers?: Record<string, string>; params?: Record<string, string> } = {},
  ): Promise<ClientReply> {
    const sentHeaders: Record<string, string> = { ...this.headers, ...headers, authorization: this.authorization() };
    if (!sentHeaders.Cookie && this.jarCookie) sentHeaders.Cookie = this.jarCookie;
    const target = params ? `${url}?${new URLSearchParams(params).toString()}` : url;
    const body = json !== undefined ? JSON.stringify(json) : payload;
    this.sent.push({ method, url: target, headers: sentHeaders, body });
    const res = await fetch(target, { method, headers: sentHeaders, body });
    const setCookie = res.headers.get('set-cookie');
    if (setCookie) this.headers.Cookie = setCookie;
    const text = await res.text();
    return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
  }

  createResourceItem(item: unknown) {
    return this.request('POST', this.prefixPath, { json: item });
  }

  getResourceItem(id: string) {
    return this.request('GET', `${this.prefixPath}/${id}`);
  }

  /** The old `_patch_resource_item`: `payload=dumps(payload)`, the token in `X-Access-Token`. */
  patchResourceItem(id: string, patch: unknown, accessToken?: string) {
    return this.request('PATCH', `${this.prefixPath}/${id}`, {
      payload: JSON.stringify(patch),
      headers: accessToken ? { 'X-Access-Token': accessToken } : {},
    });
  }

  /** `_get_resource_items`: one feed page; advances `params` from `next_page`, or forgets `offset` on 404. */
  async getResourceItems(params: Record<string, string> = {}, feed = 'changes'): Promise<ClientReply> {
    Object.assign(this.params, params, { feed });
    const reply = await this.request('GET', this.prefixPath, { params: this.params });
    if (reply.status === 200) {
      for (const [name, value] of Object.entries(reply.body.next_page as Record<string, unknown>)) {
        if (name !== 'uri' && name !== 'path') this.params[name] = String(value);
      }
    } else if (reply.status === 404) {
      delete this.params.offset;
    }
    return reply;
  }
}
