// Follows one background calculation at a time: polls its status, hands the finished body to the
// caller, keeps the error; unmounting or following another stops polling the previous one.
import { useEffect, useRef, useState } from 'preact/hooks';
import { ApiError } from '../api';
import { cancelCalculation, waitForStatus, type CalculatedBody } from './status';

export interface Running {
  id: string;
  since: number;
}

export function useCalculation(project: string) {
  const [running, setRunning] = useState<Running | null>(null);
  const [error, setError] = useState<string | null>(null);
  const controller = useRef<AbortController | null>(null);
  useEffect(() => () => controller.current?.abort(), []);

  const follow = (id: string, onDone: (body: CalculatedBody) => void) => {
    controller.current?.abort();
    const mine = new AbortController();
    controller.current = mine;
    setRunning({ id, since: Date.now() });
    setError(null);
    waitForStatus(project, id, mine.signal)
      .then((body) => { if (!mine.signal.aborted) onDone(body); })
      .catch((e) => { if (!mine.signal.aborted) setError(e instanceof ApiError || e instanceof Error ? e.message : String(e)); })
      .finally(() => { if (controller.current === mine) { controller.current = null; setRunning(null); } });
  };

  /** Stops following; `stop` also asks the server to stop the calculation. */
  const cancel = (stop = true) => {
    const id = running?.id;
    controller.current?.abort();
    controller.current = null;
    setRunning(null);
    if (stop && id) void cancelCalculation(project, id);
  };

  return { running, error, setError, follow, cancel };
}
