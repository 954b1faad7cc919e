import { Page } from '../../components/index.js';
import { RetentionSettings } from './retention-settings.js';

/** The project's settings page: one section per concern. */
export function SettingsView() {
  return (
    <Page name="settings" title="Settings">
      <RetentionSettings />
    </Page>
  );
}
