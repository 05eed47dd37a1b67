export default { fetch: () => new Response("ok") } satisfies ExportedHandler<Env>;
