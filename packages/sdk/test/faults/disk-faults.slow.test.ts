import { describe, it } from 'vitest';
import { expectNoLoss } from './expect-no-loss.js';
import { faultsOf } from './fault-table.js';
import { runFault } from './run-fault.js';
import { runSdkKillFault } from './sdk-kill.js';

describe('fault injection through the real SDK: disk faults', () => {
  it.each(faultsOf('disk'))(
    '$name: 20,000 calls, every one on the server exactly once, no error in user code',
    async (fault) => {
      expectNoLoss(fault.kind === 'sdk-kill' ? await runSdkKillFault(fault) : await runFault(fault));
    },
    90_000,
  );
});
