// The Worker bundles .ttf files as binary modules (wrangler.pdf.toml [[rules]] Data).
declare module "*.ttf" {
  const data: ArrayBuffer;
  export default data;
}
