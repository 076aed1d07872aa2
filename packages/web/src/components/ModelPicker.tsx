import { useState } from 'react';
import { byProvider, modelName, type ModelData } from './reply-view.js';

/**
 * `/model`'s data part as buttons, one per model, grouped by provider. Choosing
 * one sends `/model <id>`; the reply to that is a new card.
 */
export function ModelPicker({
  data,
  onPick,
  disabled = false,
  showCurrent = true,
}: {
  data: ModelData;
  /** Check the task's model; false on an older card, whose `current` may be out of date. */
  showCurrent?: boolean;
  onPick: (id: string) => Promise<unknown>;
  disabled?: boolean;
}) {
  const [picking, setPicking] = useState<string>();
  if (data.models.length === 0) return <p className="reply-empty">No models are listed.</p>;
  const pick = (id: string) => {
    setPicking(id);
    void onPick(id).finally(() => setPicking(undefined));
  };
  return (
    <div className="model-picker" role="group" aria-label="Choose a model">
      {byProvider(data.models).map(([provider, models]) => (
        <div className="model-group" key={provider}>
          <span className="model-provider">{provider}</span>
          <div className="model-options">
            {models.map((model) => {
              const current = showCurrent && model.id === data.current;
              return (
                <button
                  key={model.id}
                  type="button"
                  className="model-option"
                  aria-pressed={current}
                  aria-label={model.id}
                  title={current ? `${model.id} (this task's model)` : `Switch to ${model.id}`}
                  disabled={disabled || picking !== undefined}
                  data-picking={picking === model.id || undefined}
                  onClick={() => pick(model.id)}
                >
                  {current && (
                    <span className="model-check" aria-hidden="true">
                      ✓
                    </span>
                  )}
                  {modelName(model)}
                </button>
              );
            })}
          </div>
        </div>
      ))}
    </div>
  );
}
