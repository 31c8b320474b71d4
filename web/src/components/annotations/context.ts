// Which insight and dashboard a chart belongs to, set by the insight page and by each dashboard
// tile; a chart with no such scope (a shared page, the SQL editor) shows no annotations.
import { createContext } from 'preact';
import type { AnnotationPlace } from './store';

export const AnnotationsContext = createContext<AnnotationPlace | null>(null);
