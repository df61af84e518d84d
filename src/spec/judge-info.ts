/** The version and template hash of a judge a suite uses; stored in the run header. */
export type JudgeInfo = { id: string; version: number; templateSha256: string };
