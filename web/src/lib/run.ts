// Running a query node through POST /query/, as every page here does.
import { api } from '../api';
import type { QueryNode } from '../types';

export function runQuery<T = any>(project: string, query: QueryNode, signal?: AbortSignal, refresh = 'blocking'): Promise<T> {
  return api<T>(`/api/projects/${project}/query/`, { method: 'POST', body: { query, refresh }, signal });
}

/** HogQL text with backticks around a property key, so any key (spaces, `$`...) reads as one field. */
export const hogqlField = (key: string): string => `\`${key.replace(/[\\`]/g, (c) => `\\${c}`)}\``;
