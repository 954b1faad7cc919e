/**
 * What is recorded of an embeddings reply: everything but the vectors,
 * which are replaced by their length. The caller still gets the vectors;
 * recording thousands of floats per input would make the trace heavy and
 * tell a reader nothing.
 */
export function embeddingsOutput(output: unknown): unknown {
  if (typeof output !== 'object' || output === null) return output;
  const reply = output as { data?: unknown };
  if (!Array.isArray(reply.data)) return output;
  return {
    ...reply,
    data: reply.data.map((item: unknown) => {
      if (typeof item !== 'object' || item === null) return item;
      const { embedding, ...rest } = item as { embedding?: unknown };
      return { ...rest, dimensions: Array.isArray(embedding) ? embedding.length : undefined };
    }),
  };
}
