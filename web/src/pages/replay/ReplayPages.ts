// What LazyReplayPages loads: both session replay pages in one chunk.
export { RecordingsPage } from './RecordingsPage';
export { RecordingPage } from './RecordingPage';
