/** The slice of datascript's JS API the emulator uses (the package ships no types). */
declare module 'datascript' {
  namespace datascript {
    interface DB {
      readonly __datascriptDb: unique symbol;
    }
    interface Conn {
      readonly __datascriptConn: unique symbol;
    }
    interface Datom {
      e: number;
      a: string;
      v: unknown;
      tx: number;
    }
    interface TxReport {
      db_before: DB;
      db_after: DB;
      tx_data: Datom[];
      tempids: Record<string, number>;
    }
    type Schema = Record<string, Record<string, string>>;
    type Eid = number | [string, unknown];

    function init_db(datoms: Array<[number, string, unknown]>, schema?: Schema): DB;
    function serializable(db: DB): Record<string, unknown>;
    function from_serializable(serialized: Record<string, unknown>): DB;
    function empty_db(schema?: Schema): DB;
    function conn_from_db(db: DB): Conn;
    function db(conn: Conn): DB;
    function transact(conn: Conn, tx: unknown[]): TxReport;
    function resolve_tempid(tempids: Record<string, number>, tempid: number): number;
    function q(query: string, db: DB, ...inputs: unknown[]): unknown;
    function pull(db: DB, pattern: string, eid: Eid): Record<string, unknown> | null;
    function pull_many(db: DB, pattern: string, eids: Eid[]): Array<Record<string, unknown> | null>;
    function datoms(db: DB, index: string, ...components: unknown[]): Iterable<Datom>;
  }
  export = datascript;
}
