// An object's properties as a key/value table, keys sorted, nested values as JSON.
export function PropertiesTable({ properties, testId = 'properties-table' }: { properties: Record<string, unknown>; testId?: string }) {
  const keys = Object.keys(properties ?? {}).sort((a, b) => a.localeCompare(b));
  if (keys.length === 0) return <p class="muted">No properties.</p>;
  return (
    <table class="data-table props-table" data-testid={testId}>
      <thead><tr><th scope="col">Property</th><th scope="col">Value</th></tr></thead>
      <tbody>
        {keys.map((key) => {
          const value = properties[key];
          const text = value !== null && typeof value === 'object' ? JSON.stringify(value) : String(value);
          return (
            <tr data-key={key}>
              <th scope="row">{key}</th>
              <td class={value === null ? 'muted' : undefined}>{text}</td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
