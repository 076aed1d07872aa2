import type { CommandResult } from 'a2a-commands';
import type { ModelCatalog } from '../../models/catalog.js';
import { UnknownModelError } from '../../models/errors.js';
import { settingsOf, withSettings } from '../../settings.js';
import { quote } from './format.js';
import type { BuiltinCommand } from './services.js';

/** The data part of every `/model` reply; `error` only when the id was not known. */
export interface ModelData {
  error?: 'unknown_model';
  current: string;
  models: Array<{ id: string; provider: string }>;
}

/**
 * `/model [<model>]`: shows this task's model and the models to choose from, or
 * chooses one. An unknown id changes nothing; a change applies from the next
 * model call, so a turn already running finishes on the model it started with.
 */
export const modelCommand: BuiltinCommand = ({ catalog }) => ({
  name: 'model',
  description: "Show or choose this task's model",
  argument_hint: '[<model>]',
  // Completion: the models this caller may choose, each described by its provider.
  arguments: [
    {
      name: 'model',
      complete: async () =>
        (await listModels(catalog)).map(({ id, provider }) => ({
          value: id,
          description: provider,
        })),
    },
  ],
  run: async ({ args, task, updateMetadata }): Promise<CommandResult> => {
    const chosen = settingsOf(task.metadata).model;
    const current = chosen ?? (await catalog.defaultModelId());
    const models = await listModels(catalog);
    const wanted = args.trim();

    if (wanted === '') {
      return { text: overview(current, chosen === undefined, models), data: { current, models } };
    }

    if (wanted === chosen) {
      return {
        text: `The model is already ${current}; nothing changed.`,
        data: { current, models },
      };
    }

    try {
      await catalog.languageModel(wanted);
    } catch (error) {
      if (!(error instanceof UnknownModelError)) throw error;
      const suggestions = await catalog.suggest(wanted);
      const slash = wanted.indexOf('/');
      const provider = slash > 0 ? wanted.slice(0, slash) : '';
      const providers = catalog.providers();
      let shape = '';
      if (slash <= 0) shape = ' Model ids look like <provider>/<model>.';
      else if (!providers.includes(provider))
        shape = ` There is no provider ${quote(provider, 40)}; the providers are ${providers.join(', ')}.`;
      const hint =
        suggestions.length > 0
          ? ` Did you mean ${suggestions.join(', ')}?`
          : ' Type /model to list the models.';
      return {
        text: `Unknown model ${quote(wanted, 120)}.${shape}${hint} The model is still ${current}.`,
        // Like every refused argument (docs/commands.md), the data says so; the list stays for a picker.
        data: { error: 'unknown_model', current, models } satisfies ModelData,
      };
    }

    await updateMetadata((metadata) => withSettings(metadata, { model: wanted }));
    return {
      text: `Model set to ${wanted} (was ${current}). It applies from the next model call.`,
      data: { current: wanted, models },
    };
  },
});

async function listModels(catalog: ModelCatalog): Promise<ModelData['models']> {
  return (await catalog.list()).map(({ id, provider }) => ({ id, provider }));
}

function overview(current: string, isDefault: boolean, models: ModelData['models']): string {
  const lines = [`Model: ${current}${isDefault ? ' (the server default)' : ''}`];
  if (models.length === 0) {
    lines.push('No models are listed right now.');
  } else {
    lines.push('', "Models (* marks this task's):");
    const byProvider = new Map<string, string[]>();
    for (const model of models) {
      const ids = byProvider.get(model.provider) ?? [];
      ids.push(model.id);
      byProvider.set(model.provider, ids);
    }
    for (const [provider, ids] of byProvider) {
      lines.push(`${provider}:`);
      for (const id of ids) lines.push(`${id === current ? '*' : ' '} ${id}`);
    }
    if (!models.some((model) => model.id === current)) {
      lines.push('', `(${current} is not in the current listing.)`);
    }
  }
  lines.push('', 'Choose one with /model <provider>/<model>.');
  return lines.join('\n');
}
