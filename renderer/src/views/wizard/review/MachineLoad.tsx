// Before a run starts: a machine already busier than its cores, said plainly (engine/monitor/
// machine.ts, the words the run's record keeps). Asked again with "Check again".
import { useApi, useAsync } from '../../../api/context.tsx'
import { Banner, Button } from '../../../ui/Primitives.tsx'

export function MachineLoad() {
  const api = useApi()
  const machine = useAsync(() => api.runs.machine(), [api])
  const words = machine.data?.words ?? null
  if (!words) return null
  return (
    <Banner kind="warning" testId="review-machine">
      <p>{words}</p>
      <Button onClick={() => machine.reload()} data-testid="review-machine-again">
        Check again
      </Button>
    </Banner>
  )
}
