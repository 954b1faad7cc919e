import type { KeepRule, ProjectSettingsParsed, ProjectSettingsResponse } from '@weft/protocol';
import type { Storage } from '../storage/index.js';

/** Where a project's lifecycle settings live among the monitoring documents (`MonitorStateStorage`). */
const KIND = 'lifecycle.settings';
const KEY = 'settings';

/** A project's settings as stored: `retentionDays` absent means the server default applies. */
interface StoredSettings {
  retentionDays?: number | null;
  keepRules: KeepRule[];
}

/** The retention a project is under, and what it keeps whatever its age. */
export interface RetentionPolicy {
  project: string;
  /** `null`: calls are kept until deleted. */
  retentionDays: number | null;
  keepRules: readonly KeepRule[];
}

/**
 * Lifecycle settings per project (retention, keep rules), kept as
 * monitoring documents so every engine stores them the same way, and the
 * server's default retention that applies where a project set none.
 */
export class ProjectSettingsStore {
  readonly #storage: Storage;
  readonly #defaultRetentionDays: number | null;

  constructor(storage: Storage, { defaultRetentionDays }: { defaultRetentionDays: number | null }) {
    this.#storage = storage;
    this.#defaultRetentionDays = defaultRetentionDays;
  }

  async read(project: string): Promise<ProjectSettingsResponse> {
    const stored = await this.#storage.monitoring.readDocument<StoredSettings>(project, KIND, KEY);
    return this.#response(project, stored?.value);
  }

  /** Replaces the project's settings (`retentionDays` absent: back to the server default). */
  async write(project: string, settings: ProjectSettingsParsed): Promise<ProjectSettingsResponse> {
    const value: StoredSettings = { keepRules: settings.keepRules };
    if (settings.retentionDays !== undefined) value.retentionDays = settings.retentionDays;
    await this.#storage.monitoring.writeDocument(project, KIND, KEY, value);
    return this.#response(project, value);
  }

  /**
   * The policy of every project that has calls or settings: the projects'
   * own settings, and the server default for the rest.
   */
  async policies(): Promise<RetentionPolicy[]> {
    const documents = await this.#storage.monitoring.listDocuments<StoredSettings>(KIND, undefined);
    const byProject = new Map(documents.map((doc) => [doc.project, doc.value]));
    const projects = new Set([
      ...byProject.keys(),
      ...(await this.#storage.listProjects()).map((p) => p.name),
    ]);
    return [...projects].sort().map((project) => {
      const settings = this.#response(project, byProject.get(project));
      return { project, retentionDays: settings.effectiveRetentionDays, keepRules: settings.keepRules };
    });
  }

  /** The policy of one project. */
  async policy(project: string): Promise<RetentionPolicy> {
    const settings = await this.read(project);
    return { project, retentionDays: settings.effectiveRetentionDays, keepRules: settings.keepRules };
  }

  #response(project: string, stored: StoredSettings | undefined): ProjectSettingsResponse {
    const own = stored?.retentionDays;
    return {
      project,
      ...(own === undefined ? {} : { retentionDays: own }),
      keepRules: stored?.keepRules ?? [],
      defaultRetentionDays: this.#defaultRetentionDays,
      effectiveRetentionDays: own === undefined ? this.#defaultRetentionDays : own,
    };
  }
}
