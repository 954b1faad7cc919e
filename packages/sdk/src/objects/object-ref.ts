/** A saved object version. `uri` is what calls record in its place and what {@link get} accepts. */
export interface ObjectRef {
  /** `weft:///<project>/object/<name>:<digest>` */
  readonly uri: string;
  readonly project: string;
  readonly name: string;
  readonly digest: string;
}
