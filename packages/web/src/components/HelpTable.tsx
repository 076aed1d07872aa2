import type { ListedCommand } from './reply-view.js';

/**
 * `/help`'s overview as a table: the reply's text pads its columns with
 * spaces, which break apart once a line wraps; cells keep them.
 */
export function HelpTable({ commands, footer }: { commands: ListedCommand[]; footer?: string }) {
  return (
    <>
      <table className="reply-help" aria-label="Commands">
        <tbody>
          {commands.map((command) => (
            <tr key={command.name}>
              <td className="reply-help-usage">
                <code>
                  /{command.name}
                  {command.hint !== '' && ` ${command.hint}`}
                </code>
              </td>
              <td>{command.description}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {footer && <p className="reply-summary">{footer}</p>}
    </>
  );
}
