import { createHash, timingSafeEqual } from 'node:crypto';

/** What a request may reach: every project (the admin token, or no auth configured), or a fixed set. */
export type ProjectScope =
  | { readonly kind: 'all' }
  | { readonly kind: 'projects'; readonly projects: ReadonlySet<string> };

/** Scope of the admin token and of a server without tokens. */
export const ALL_PROJECTS: ProjectScope = Object.freeze({ kind: 'all' });

const sha256 = (text: string): Buffer => createHash('sha256').update(text, 'utf8').digest();

interface Entry {
  readonly hash: Buffer;
  readonly scope: ProjectScope;
}

/**
 * The tokens a server accepts and what each may reach. Tokens are kept only
 * as SHA-256 hashes. A presented token is hashed once and looked up by its
 * hash, then confirmed with `timingSafeEqual`: the lookup's timing depends on
 * the hash, never on how many leading characters of a real token were right,
 * and the registry holds no token text to leak into a log or a heap dump.
 */
export class TokenRegistry {
  readonly #byHash = new Map<string, Entry>();

  /**
   * @param adminToken reaches every project.
   * @param projectTokens token → the project names it may reach. A token that
   *   is also the admin token keeps the admin scope.
   */
  constructor({
    adminToken,
    projectTokens = {},
  }: {
    adminToken?: string | undefined;
    projectTokens?: Readonly<Record<string, readonly string[]>> | undefined;
  }) {
    for (const [token, projects] of Object.entries(projectTokens)) {
      this.#add(token, { kind: 'projects', projects: new Set(projects) });
    }
    if (adminToken !== undefined) this.#add(adminToken, ALL_PROJECTS);
  }

  /** True when no token is configured: the server is open (loopback only). */
  get isEmpty(): boolean {
    return this.#byHash.size === 0;
  }

  /** Number of distinct tokens accepted. */
  get size(): number {
    return this.#byHash.size;
  }

  /** The scope of `presented`, or undefined when it is no known token. */
  scopeOf(presented: string): ProjectScope | undefined {
    const hash = sha256(presented);
    const entry = this.#byHash.get(hash.toString('hex'));
    // The map key is already the full hash; the constant-time confirm keeps
    // the guarantee independent of how Map compares its string keys.
    if (entry === undefined || !timingSafeEqual(entry.hash, hash)) return undefined;
    return entry.scope;
  }

  #add(token: string, scope: ProjectScope): void {
    const hash = sha256(token);
    this.#byHash.set(hash.toString('hex'), { hash, scope });
  }
}
