// @ts-check
// The table opened from a personal link: the ticket is the link's fragment (/#TICKET), so it
// reaches neither the server's logs nor a referrer.
import { startTable } from "./app.js";

startTable({ ticket: decodeURIComponent(location.hash.slice(1)) });
