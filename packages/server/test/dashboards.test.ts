import { type Dashboard, routes } from '@weft/protocol';
import { startTestServer } from '@weft/test-server';
import { describe, expect, it, onTestFinished } from 'vitest';
import { get, post } from './support/http.js';
import { freshTestStorageUrl } from './support/test-storage.js';

async function startServer() {
  const server = await startTestServer({
    storage: freshTestStorageUrl(),
    register: false,
    monitoring: { scheduler: false },
  });
  onTestFinished(() => server.close());
  return server;
}

const latency = (project: string, title: string): Dashboard => ({
  project,
  name: 'latency',
  panels: [
    { title, measures: ['latency.p95'], groupBy: 'model', filter: { parentId: null }, unit: 'ms' },
    { title: 'Helpful', measures: [{ feedback: 'helpful', stat: 'mean' }], unit: 'score' },
  ],
});

describe('custom dashboards', () => {
  it('are saved per project by name, replaced by a new save, listed and deleted', async () => {
    const server = await startServer();
    const saved = await post(server.url, routes.dashboardPut(), latency('dash-a', 'p95 by model'));
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(saved.body).toMatchObject({ name: 'latency', panels: [{ title: 'p95 by model' }, {}] });
    await post(server.url, routes.dashboardPut(), latency('dash-a', 'p95 by model, roots'));
    await post(server.url, routes.dashboardPut(), { ...latency('dash-a', 'x'), name: 'cost' });
    await post(server.url, routes.dashboardPut(), latency('dash-b', 'another project'));
    const list = await get(server.url, routes.dashboardList('dash-a'));
    expect(list.status).toBe(200);
    expect(list.body.dashboards.map((d: Dashboard) => d.name)).toEqual(['cost', 'latency']);
    const replaced = list.body.dashboards.find((d: Dashboard) => d.name === 'latency');
    expect(replaced.panels[0]).toEqual({
      title: 'p95 by model, roots',
      measures: ['latency.p95'],
      groupBy: 'model',
      filter: { parentId: null },
      unit: 'ms',
    });
    expect(typeof replaced.updatedAt).toBe('number');
    const deleted = await post(server.url, routes.dashboardDelete(), { project: 'dash-a', name: 'cost' });
    expect(deleted.body).toEqual({ deleted: true });
    expect(
      (await post(server.url, routes.dashboardDelete(), { project: 'dash-a', name: 'cost' })).body,
    ).toEqual({ deleted: false });
    expect((await get(server.url, routes.dashboardList('dash-a'))).body.dashboards).toHaveLength(1);
    expect((await get(server.url, routes.dashboardList('dash-b'))).body.dashboards).toHaveLength(1);
  });

  it('refuses a panel with a measure, group or filter that does not exist, naming it, and keeps the saved one', async () => {
    const server = await startServer();
    await post(server.url, routes.dashboardPut(), latency('dash-bad', 'kept'));
    const bad = (panel: Record<string, unknown>) =>
      post(server.url, routes.dashboardPut(), { project: 'dash-bad', name: 'latency', panels: [panel] });
    const measure = await bad({ title: 't', measures: ['latency.p42'] });
    expect(measure.status).toBe(400);
    expect(JSON.stringify(measure.body)).toContain('panels.0.measures.0');
    const group = await bad({ title: 't', measures: ['count'], groupBy: 'colour' });
    expect(group.status).toBe(400);
    expect(JSON.stringify(group.body)).toContain('panels.0.groupBy');
    const filter = await bad({ title: 't', measures: ['count'], filter: { opname: 'x' } });
    expect(filter.status).toBe(400);
    expect(JSON.stringify(filter.body)).toContain('opname');
    const none = await post(server.url, routes.dashboardPut(), {
      project: 'dash-bad',
      name: 'latency',
      panels: [],
    });
    expect(none.status).toBe(400);
    const list = await get(server.url, routes.dashboardList('dash-bad'));
    expect(list.body.dashboards[0].panels[0].title).toBe('kept');
  });
});
