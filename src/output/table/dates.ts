// Showing the service's date-times in local time (they are read by src/api/model/timestamps.ts).

/** `YYYY-MM-DD HH:MM:SS` in the local time zone of the process. */
export function formatLocalDateTime(date: Date): string {
  const pad = (n: number): string => String(n).padStart(2, '0');
  const day = `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
  return `${day} ${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
}
