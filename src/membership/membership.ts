import { liveMembers } from '../metrics';

/** Which API nodes are alive: a session cookie naming a node that is not gets 412 (docs/architecture.md §Sessions and causal tokens). */
export interface Membership {
  readonly selfId: string;
  isAlive(nodeId: string): Promise<boolean>;
  start(): Promise<void>;
  stop(): Promise<void>;
}

/** Without Redis the node itself is the only member. */
export function soloMembership(selfId: string): Membership {
  return {
    selfId,
    isAlive: async (nodeId) => nodeId === selfId,
    start: async () => {
      liveMembers.set(1);
    },
    stop: async () => {},
  };
}
