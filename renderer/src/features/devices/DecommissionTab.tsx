import { useState } from 'react';
import type { DeviceDetail } from '../../../../server/contract';
import { devicesApi } from './api';
import { ConfirmTarget } from '../../ui/DialogActions';
import { useTarget } from '../../lib/hooks';
import { navigate } from '../../lib/router';
import { deviceName } from './format';

// Decommissioning removes a device from lists and device caps and has its agent uninstall itself; the record is
// kept for history. Destructive: the technician types the hostname to confirm, and the server wants MFA.

export function DecommissionTab({ device }: { device: DeviceDetail }) {
  const [typed, setTyped] = useState('');
  const confirming = useTarget<true>();
  const retired = device.status === 'decommissioned';
  const matches = typed.trim().toLowerCase() === device.hostname.toLowerCase();

  const decommission = async () => {
    await devicesApi.decommission(device.id);
    confirming.close();
    navigate('/devices', { replace: true });
  };

  return (
    <div className="dv-tab" data-testid="device-decommission">
      <section className="dv-danger">
        <h3>Decommission {deviceName(device)}</h3>
        {retired ? (
          <p>This device is already decommissioned.</p>
        ) : (
          <>
            <p>
              The device leaves the device list and stops counting against the organization’s device limit.
              Commands still waiting for it are cancelled and its agent is told to uninstall itself and remove
              its configuration; to come back it would have to enroll again with a new key. Logs and history
              are kept.
            </p>
            <div className="field">
              <label htmlFor="decommission-confirm-name">
                Type the hostname <span className="mono">{device.hostname}</span> to confirm
              </label>
              <input
                id="decommission-confirm-name"
                type="text"
                value={typed}
                autoComplete="off"
                spellCheck={false}
                onChange={(e) => setTyped(e.target.value)}
                data-testid="decommission-confirm-name"
              />
            </div>
            <div>
              <button
                type="button"
                className="btn btn-danger"
                disabled={!matches}
                onClick={() => confirming.open(true)}
                data-testid="device-decommission-start"
              >
                Decommission device…
              </button>
            </div>
          </>
        )}
      </section>
      <ConfirmTarget
        of={confirming}
        title="Decommission device"
        confirmLabel="Decommission"
        testId="decommission-dialog"
        onConfirm={decommission}
      >
        <p>
          Decommission <strong>{deviceName(device)}</strong> (<span className="mono">{device.hostname}</span>)
          in {device.orgName}? This cannot be undone from the console.
        </p>
      </ConfirmTarget>
    </div>
  );
}
