/** A search hit's passage with the matched words highlighted (the server's `snippet` parts). */
export function Snippet({ parts }: { parts: { text: string; match: boolean }[] }) {
  return (
    <div class="snippet">
      {parts.map((p, i) => (p.match ? <mark key={i}>{p.text}</mark> : <span key={i}>{p.text}</span>))}
    </div>
  );
}
