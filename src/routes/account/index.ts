import { newRouter } from "../../lib/router";
import { retrieveAccount } from "./retrieve";

export const account = newRouter().get("/", (c) => retrieveAccount(c));
